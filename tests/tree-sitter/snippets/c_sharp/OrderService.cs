using System;
using System.Collections.Generic;
using Json = System.Text.Json.JsonSerializer;
using static System.Math;

namespace Shop.Orders
{
    /// <summary>Something that can be priced.</summary>
    public interface IPriced
    {
        decimal Total();
    }

    /// <summary>
    /// Places orders and keeps their history.
    /// </summary>
    public class OrderService : ServiceBase, IDisposable
    {
        /// <summary>Largest order accepted.</summary>
        public const int MaxItems = 100;

        private readonly List<Order> _history = new List<Order>();

        // Builds the service over a repository.
        public OrderService(IRepository repo) : base(repo)
        {
            Log("created");
        }

        /// <summary>Places one order.</summary>
        /// <param name="customer">Who orders.</param>
        /// <returns>The stored <see cref="Order"/>.</returns>
        public Order Place(string customer, decimal amount)
        {
            var order = new Order(customer, Round(amount, 2));
            _history.Add(order);
            this.Repository.Save(Json.Serialize(order));
            return order;
        }

        public int Count => _history.Count;

        public void Dispose() => Repository.Dispose();
    }

    public record Order(string Customer, decimal Amount) : IPriced
    {
        public decimal Total() => Amount;
    }

    public struct Money { public decimal Value; }

    public enum OrderState { Open, Paid, Shipped }

    public delegate void OrderPlaced(Order order);
}
